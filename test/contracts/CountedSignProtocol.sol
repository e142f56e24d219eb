// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title A Sign Protocol registry with an initial counter, as Optimism's: `getAttestation` reverts
/// for an id below the first one it ever assigned (the local chain's LocalSignProtocol answers the
/// zero attestation instead). Same ABI as LocalSignProtocol; for tests only.
contract CountedSignProtocol {
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

    /// The first id the registry assigns; below it, `getAttestation` reverts.
    uint64 public constant initialCounter = 0x1000;

    error AttestationNonexistent();

    mapping(uint64 => Attestation) private attestations;

    function getAttestation(uint64 attestationId) external view returns (Attestation memory) {
        if (attestationId < initialCounter) revert AttestationNonexistent();
        return attestations[attestationId];
    }

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
