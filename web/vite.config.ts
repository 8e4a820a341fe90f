import { defineConfig } from 'vitest/config'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath, URL } from 'node:url'

/**
 * Adds <link rel="modulepreload"> for a lazy chunk and its imports, so the browser fetches it
 * with the entry instead of after the entry has run: one round trip less before that screen.
 */
function preloadLazyChunk(source: string): Plugin {
  return {
    name: 'murmur-preload-lazy-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html
        const files = new Set<string>()
        const add = (fileName: string) => {
          const chunk = bundle[fileName]
          if (files.has(fileName) || chunk?.type !== 'chunk') return
          files.add(fileName)
          chunk.imports.forEach(add)
        }
        const lazy = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(source))
        if (!lazy) throw new Error(`preloadLazyChunk: no chunk for ${source}`)
        add(lazy.fileName)
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }))
      },
    },
  }
}

export default defineConfig({
  // Visitors see the landing page on any path (4 KB of it is wasted on members).
  plugins: [react(), tailwindcss(), preloadLazyChunk('src/app/routes/landing.tsx')],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's Content-Security-Policy forbids inline scripts and data: fonts;
    // keep every asset a real file.
    assetsInlineLimit: 0,
    // .vite/manifest.json: the server reads it to preload the member screens' chunks in a
    // member's document (src/web.rs).
    manifest: true,
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
