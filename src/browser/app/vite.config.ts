import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Build output and Vite's cache stay under Maven's target/, never in the source tree.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  cacheDir: '../../../target/browser-vite-cache',
  build: { outDir: '../../../target/browser-app', emptyOutDir: true },
});
