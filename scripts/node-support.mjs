// The one line `npm start` prints on a Node.js outside package.json's `engines` (npm's own warnings
// about it are a wall of dependency names, printed only by `npm install`); the service still starts.
import semver from 'semver';

/** The line for Node.js `version` when it is outside `range`, or null when it is supported. */
export function unsupportedNodeLine(version, range) {
  if (semver.satisfies(version, range)) return null;
  return (
    `This is Node.js ${version}; the service supports ${range.replace(' || ', ' or ')}. ` +
    'Get one with `eval "$(scripts/node-toolchain.sh env 24)"` (README, "Node.js versions").'
  );
}
