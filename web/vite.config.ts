import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath, URL } from 'node:url'

export default defineConfig({
  // The first screen's chunks (the landing page's for visitors, the member screens' for members)
  // are preloaded by the server, which knows who is asking (src/web/mod.rs).
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's Content-Security-Policy forbids inline scripts and data: fonts;
    // keep every asset a real file.
    assetsInlineLimit: 0,
    // .vite/manifest.json: the server reads it to preload the first screen's chunks in the
    // document (src/web/mod.rs).
    manifest: true,
    rollupOptions: {
      // The service worker is its own entry, at the site's root (its scope is where it is served
      // from) and under a name that never changes (a browser updates a worker by its URL).
      input: { index: 'index.html', sw: 'src/service-worker/sw.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/objects': 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
})
