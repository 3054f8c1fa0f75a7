// Hardhat config for the local chain of the e2e tests (started with `hardhat node`; nothing is
// compiled by Hardhat: the tests compile contracts/ with solc-js). CommonJS: the project is ESM.
module.exports = {
  networks: {
    hardhat: { chainId: 31337, mining: { auto: true } },
  },
};
