// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Passport's score decoder of the local chain (Optimism 0x5558D441779Eca04A329BcD6b47830D2C6607769).
/// @notice The read of the GitcoinPassportDecoder that strategies use: `getScore(address)` returns
/// the score with 4 decimals, reverts `AttestationNotFound()` when the address has no score (never
/// pushed, or revoked) and `AttestationExpired(expirationTime)` from its expiry on. `setScore` and
/// `revoke` are open to anyone: for the local chain (seeded from the world) and tests only.
contract LocalPassportDecoder {
    error AttestationNotFound();
    error AttestationExpired(uint64 expirationTime);

    /// One slot: score (4 bytes, 4 decimals), time (8), expirationTime (8), from the right.
    struct Score {
        uint32 score;
        uint64 time;
        uint64 expirationTime;
    }

    mapping(address => Score) public scores;

    /// The score threshold of Passport's own model, 4 decimals (20.0000).
    uint256 public constant threshold = 200000;

    function getScore(address user) external view returns (uint256) {
        Score memory score = scores[user];
        if (score.time == 0) revert AttestationNotFound();
        if (block.timestamp >= score.expirationTime) revert AttestationExpired(score.expirationTime);
        return score.score;
    }

    function setScore(address user, uint32 score, uint64 time, uint64 expirationTime) external {
        scores[user] = Score(score, time, expirationTime);
    }

    /// A revoked attestation: the resolver deletes the score.
    function revoke(address user) external {
        delete scores[user];
    }
}
