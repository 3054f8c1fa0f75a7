// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/** An ERC-20 of the tests' own: the deployer mints to anyone (the onchain quest tasks' holdings). */
contract QuestToken is ERC20 {
    address private immutable minter;

    constructor() ERC20("Quest Token", "QTK") {
        minter = msg.sender;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "not the minter");
        _mint(to, amount);
    }
}
