import module from 'node:module';

/**
 * Loaded before the service's modules (`--import=./dist/src/source-maps.js` in `npm start` and the
 * image's command): stack traces through our own code name the TypeScript sources, as
 * `--enable-source-maps` did, without reading and keeping the source maps of every dependency
 * module loaded (about 15 MB of idle memory: docs/performance.md, P7). A Node.js without
 * `setSourceMapsSupport` (before 22.14) keeps them all, as the flag did.
 */
const support = (module as { setSourceMapsSupport?: typeof module.setSourceMapsSupport }).setSourceMapsSupport;
if (support) support(true, { nodeModules: false, generatedCode: false });
else process.setSourceMapsEnabled(true);
