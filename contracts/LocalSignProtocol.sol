// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Sign Protocol's registry on the local chain (Optimism 0x945C44803E92a3495C32be951052a62E45A5D964).
/// @notice Same `getAttestation(uint64)` ABI; an unknown id returns the zero attestation, as the
/// registry's storage read does. `attest` and `revoke` are open to anyone: for the local chain and
/// tests only.
contract LocalSignProtocol {
    struct Attestation {
        uint64 schemaId;
        uint64 linkedAttestationId;
        uint64 attestTimestamp;
        uint64 revokeTimestamp;
        address attester;
        uint64 validUntil;
        uint8 dataLocation;
        bool revoked;
        bytes[] recipients;
        bytes data;
    }

    mapping(uint64 => Attestation) private attestations;

    function getAttestation(uint64 attestationId) external view returns (Attestation memory) {
        return attestations[attestationId];
    }

    /// Stores an attestation under `attestationId`; attestTimestamp is the block's timestamp.
    function attest(
        uint64 attestationId,
        uint64 schemaId,
        address attester,
        uint64 validUntil,
        bytes[] calldata recipients
    ) external {
        Attestation storage a = attestations[attestationId];
        a.schemaId = schemaId;
        a.attestTimestamp = uint64(block.timestamp);
        a.attester = attester;
        a.validUntil = validUntil;
        delete a.recipients;
        for (uint256 i = 0; i < recipients.length; i++) a.recipients.push(recipients[i]);
        a.revoked = false;
        a.revokeTimestamp = 0;
    }

    function revoke(uint64 attestationId) external {
        Attestation storage a = attestations[attestationId];
        a.revoked = true;
        a.revokeTimestamp = uint64(block.timestamp);
    }
}
