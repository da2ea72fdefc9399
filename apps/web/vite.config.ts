import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
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
        navigateFallbackDenylist: [/^\/v1\//, /^\/socket\.io\//],
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
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800, modulePreload: false },
});
