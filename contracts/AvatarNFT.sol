// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/**
 * The avatar of a community member as an ERC-721 token. Only the owner (the service's minter key)
 * mints. The service chooses each token id deterministically from its mint job, so sending the
 * same job twice cannot create a second token: the second `mint` reverts (ERC721InvalidSender).
 * The token URI points at the service's public avatar metadata URL.
 */
contract AvatarNFT is ERC721URIStorage, Ownable {
    constructor(string memory name_, string memory symbol_, address minter) ERC721(name_, symbol_) Ownable(minter) {}

    /// Mints `tokenId` to `to` with metadata at `uri`. Reverts when the token already exists.
    function mint(address to, uint256 tokenId, string calldata uri) external onlyOwner {
        _mint(to, tokenId);
        _setTokenURI(tokenId, uri);
    }

    /// Whether `tokenId` has been minted (and not burned).
    function exists(uint256 tokenId) external view returns (bool) {
        return _ownerOf(tokenId) != address(0);
    }
}
