// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title A broken Hub: `getSBT` always reverts while `sbtOwners` reports a live SBT.
/// @notice The verifier must fail loudly on reads that contradict each other, never guess.
contract InconsistentHub {
    function getSBT(address, bytes32) external pure returns (uint256, uint256[] memory, bool) {
        revert("SBT is expired or does not exist");
    }

    function sbtOwners(bytes32) external pure returns (uint256 expiry, bool revoked) {
        return (type(uint256).max, false);
    }
}
