import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The QR menu's page (mesa.html, issue 35) lists every JS file its entry imports as
 * <link rel="modulepreload">: a phone on 4G asks for them all at once instead of one import level per
 * round trip (modulePreload is off for the app, see below; the table page has no lazy imports).
 */
function preloadMesaImports(): Plugin {
  return {
    name: 'balcao:mesa-modulepreload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.path.endsWith('/mesa.html') || !ctx.chunk || !ctx.bundle) return html;
        const bundle = ctx.bundle;
        const files = new Set<string>();
        const walk = (name: string) => {
          const chunk = bundle[name];
          if (chunk?.type !== 'chunk') return;
          for (const dep of chunk.imports) {
            if (files.has(dep)) continue;
            files.add(dep);
            walk(dep);
          }
        };
        walk(ctx.chunk.fileName);
        return {
          html,
          tags: [...files].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
        };
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    preloadMesaImports(),
    // Issue 21: the app shell and every page's files are precached by a Workbox service worker after
    // one online visit, so the PDV opens and sells without a connection; the API (/v1, /socket.io)
    // is never cached. The worker is registered by the logged shell (layout/DashboardLayout.tsx), so
    // /login's JS budget is untouched; a new build takes over on the next load (skipWaiting).
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Balcão',
        short_name: 'Balcão',
        description: 'Gestão de loja e PDV',
        lang: 'pt-BR',
        start_url: '/dashboard/sale/pdv',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1565c0',
        icons: [
          { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: '/index.html',
        // /mesa/* is the QR menu's own page (mesa.html, issue 35), never the app shell.
        navigateFallbackDenylist: [/^\/v1\//, /^\/socket\.io\//, /^\/mesa\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/v1': api, '/socket.io': { target: api, ws: true } },
  },
  // modulePreload off: every lazy page's import() no longer carries the list of chunks to preload
  // (15 KB of asset names in the entry that /login downloads, 4 KB gzipped). After the first visit
  // the service worker's precache (Workbox) holds every chunk, so the chains cost nothing.
  // Two HTML entries: the app (index.html) and the table's QR menu (mesa.html, issue 35), which loads
  // React and its page only; the API serves it for /mesa/*.
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    modulePreload: false,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        mesa: fileURLToPath(new URL('mesa.html', import.meta.url)),
      },
    },
  },
});
