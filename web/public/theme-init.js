// Applies the stored theme before React loads so the page never flashes the wrong colours.
;(function () {
  var theme = 'system'
  try {
    theme = localStorage.getItem('vite-ui-theme') || 'system'
  } catch (e) {}
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
  }
  document.documentElement.classList.add(theme)
})()
