// The operator console: built by `npm run build` (after `nest build`, which empties dist/) into
// dist/console, which the service serves at /console (src/common/console/serve-console.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // JSX by the bundler's own transform (tsconfig "jsx": "react-jsx"); no React plugin needed for a build.
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // One file per chunk, hashed: served with a year's cache (the index.html is revalidated).
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      // react-router marks its modules "use client" (for React Server Components): meaningless in a
      // client-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
