// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title The Human ID Hub V3 of the local chain (Optimism 0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB).
/// @notice Same storage shape, same `getSBT` / `sbtOwners` ABI and revert messages as the Hub
/// on Optimism (docs/devchain.md). `setSBT`, `setSBTs` and `revokeSBT` are
/// open to anyone: for the local chain (`personhood/devchain`, which seeds it from the world) and
/// tests only, never for a real network.
contract LocalHub {
    struct SBT {
        uint256 expiry;
        /// [expiry, recipient, actionId, actionNullifier, issuer]
        uint256[] publicValues;
        bool revoked;
    }

    /// id = keccak256(abi.encodePacked(subject, circuitId)). The public getter leaves out the
    /// array, so it returns (uint256 expiry, bool revoked) and never reverts.
    mapping(bytes32 => SBT) public sbtOwners;

    function sbtId(address subject, bytes32 circuitId) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(subject, circuitId));
    }

    function getSBT(address subject, bytes32 circuitId) public view returns (SBT memory) {
        SBT memory sbt = sbtOwners[sbtId(subject, circuitId)];
        require(sbt.expiry >= block.timestamp, "SBT is expired or does not exist");
        require(!sbt.revoked, "SBT has been revoked");
        return sbt;
    }

    /// One SBT per subject and circuit: a new one replaces the old.
    function setSBT(address subject, bytes32 circuitId, uint256 expiry, uint256[] calldata publicValues) external {
        SBT storage sbt = sbtOwners[sbtId(subject, circuitId)];
        sbt.expiry = expiry;
        sbt.publicValues = publicValues;
        sbt.revoked = false;
    }

    /// Bench set-up: one SBT per subject for one circuit, with publicValues
    /// [expiry, subject, actionId, keccak256(subject, circuitId), issuer].
    function setSBTs(address[] calldata subjects, bytes32 circuitId, uint256 expiry, uint256 actionId, uint256 issuer)
        external
    {
        for (uint256 i = 0; i < subjects.length; i++) {
            bytes32 id = sbtId(subjects[i], circuitId);
            SBT storage sbt = sbtOwners[id];
            sbt.expiry = expiry;
            delete sbt.publicValues;
            sbt.publicValues.push(expiry);
            sbt.publicValues.push(uint256(uint160(subjects[i])));
            sbt.publicValues.push(actionId);
            sbt.publicValues.push(uint256(id));
            sbt.publicValues.push(issuer);
            sbt.revoked = false;
        }
    }

    function revokeSBT(address subject, bytes32 circuitId) external {
        sbtOwners[sbtId(subject, circuitId)].revoked = true;
    }
}
