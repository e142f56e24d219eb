// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// A minimal ERC-1271 smart-contract wallet for sign-in tests: a signature is valid when its EOA
/// signer is the wallet's owner.
contract TestSmartWallet {
    bytes4 private constant MAGIC_VALUE = 0x1626ba7e;

    address public owner;

    function setOwner(address newOwner) external {
        require(owner == address(0) || msg.sender == owner, "not the owner");
        owner = newOwner;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : bytes4(0xffffffff);
    }
}
