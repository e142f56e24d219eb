// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title A permanent Human ID store of the local chain (Optimism: gov-id
/// 0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31, phone 0xA40C8AAF7F47B18c1eDdBe7855b580f828eD9711).
/// @notice No expiry, no revocation. `setIsUniqueForAction` is open to anyone: for the local chain
/// and tests only.
contract LocalLegacyStore {
    mapping(address => mapping(uint256 => bool)) private unique;

    function isUniqueForAction(address user, uint256 actionId) external view returns (bool) {
        return unique[user][actionId];
    }

    function setIsUniqueForAction(address user, uint256 actionId, bool value) external {
        unique[user][actionId] = value;
    }
}
