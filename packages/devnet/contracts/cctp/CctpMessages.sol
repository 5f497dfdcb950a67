// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// CCTP v2 message: packed, big-endian, addresses as bytes32. Field at byte offset (length):
//   version 0 (4) · sourceDomain 4 (4) · destinationDomain 8 (4) · nonce 12 (32) · sender 44 (32) ·
//   recipient 76 (32) · destinationCaller 108 (32) · minFinalityThreshold 140 (4) ·
//   finalityThresholdExecuted 144 (4) · messageBody 148
// The source chain emits it with nonce and finalityThresholdExecuted empty: the attester fills them in
// and signs the result.
library MessageV2 {
    uint256 internal constant MESSAGE_BODY_INDEX = 148;

    function format(
        uint32 version,
        uint32 sourceDomain,
        uint32 destinationDomain,
        bytes32 sender,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) internal pure returns (bytes memory) {
        return
            abi.encodePacked(
                version,
                sourceDomain,
                destinationDomain,
                bytes32(0), // nonce
                sender,
                recipient,
                destinationCaller,
                minFinalityThreshold,
                uint32(0), // finalityThresholdExecuted
                messageBody
            );
    }

    /// @dev Every reader below assumes this passed; a shorter message would fail them with a bare panic.
    function validateFormat(bytes calldata message) internal pure {
        require(message.length >= MESSAGE_BODY_INDEX, "Invalid message: too short");
    }

    function getVersion(bytes calldata message) internal pure returns (uint32) {
        return uint32(bytes4(message[0:4]));
    }

    function getSourceDomain(bytes calldata message) internal pure returns (uint32) {
        return uint32(bytes4(message[4:8]));
    }

    function getDestinationDomain(bytes calldata message) internal pure returns (uint32) {
        return uint32(bytes4(message[8:12]));
    }

    function getNonce(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[12:44]);
    }

    function getSender(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[44:76]);
    }

    function getRecipient(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[76:108]);
    }

    function getDestinationCaller(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[108:140]);
    }

    function getFinalityThresholdExecuted(bytes calldata message) internal pure returns (uint32) {
        return uint32(bytes4(message[144:148]));
    }

    function getBody(bytes calldata message) internal pure returns (bytes calldata) {
        return message[MESSAGE_BODY_INDEX:];
    }
}

// CCTP v2 burn message, the body of a token messenger's message. Field at byte offset (length):
//   version 0 (4) · burnToken 4 (32) · mintRecipient 36 (32) · amount 68 (32) · messageSender 100 (32) ·
//   maxFee 132 (32) · feeExecuted 164 (32) · expirationBlock 196 (32) · hookData 228
// Emitted with feeExecuted and expirationBlock zero; the attester fills them in.
library BurnMessageV2 {
    uint256 internal constant HOOK_DATA_INDEX = 228;

    function format(
        uint32 version,
        bytes32 burnToken,
        bytes32 mintRecipient,
        uint256 amount,
        bytes32 messageSender,
        uint256 maxFee,
        bytes calldata hookData
    ) internal pure returns (bytes memory) {
        return
            abi.encodePacked(
                version,
                burnToken,
                mintRecipient,
                amount,
                messageSender,
                maxFee,
                uint256(0), // feeExecuted
                uint256(0), // expirationBlock
                hookData
            );
    }

    function validateFormat(bytes calldata message) internal pure {
        require(message.length >= HOOK_DATA_INDEX, "Invalid message: too short");
    }

    function getVersion(bytes calldata message) internal pure returns (uint32) {
        return uint32(bytes4(message[0:4]));
    }

    function getBurnToken(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[4:36]);
    }

    function getMintRecipient(bytes calldata message) internal pure returns (bytes32) {
        return bytes32(message[36:68]);
    }

    function getAmount(bytes calldata message) internal pure returns (uint256) {
        return uint256(bytes32(message[68:100]));
    }

    function getMaxFee(bytes calldata message) internal pure returns (uint256) {
        return uint256(bytes32(message[132:164]));
    }

    function getFeeExecuted(bytes calldata message) internal pure returns (uint256) {
        return uint256(bytes32(message[164:196]));
    }

    function getExpirationBlock(bytes calldata message) internal pure returns (uint256) {
        return uint256(bytes32(message[196:228]));
    }
}

/// @notice bytes32 ⇄ address as CCTP carries addresses: 12 zero bytes, then the 20 address bytes.
library AddressBytes32 {
    function toBytes32(address account) internal pure returns (bytes32) {
        return bytes32(uint256(uint160(account)));
    }

    function toAddress(bytes32 value) internal pure returns (address) {
        return address(uint160(uint256(value)));
    }
}
