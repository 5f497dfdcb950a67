// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMessageHandlerV2, IRelayerV2} from "./CctpInterfaces.sol";
import {AddressBytes32, MessageV2} from "./CctpMessages.sol";
import {CctpOwnable2Step, CctpPausable} from "./CctpRoles.sol";

/**
 * @title MessageTransmitterV2 (devnet)
 * @notice Sends and receives CCTP v2 messages with the external interface, events, checks, check order and
 * revert strings of Circle's V2.1 MessageTransmitterV2, so that code written against Circle's contracts
 * runs unchanged against the devnet. Written for the devnet from the documented behaviour; not upgradeable
 * (it is deployed once per chain at a CREATE2 address), so what Circle's proxy initialises is set by the
 * constructor.
 */
contract MessageTransmitterV2 is IRelayerV2, CctpPausable {
    using AddressBytes32 for address;
    using AddressBytes32 for bytes32;

    uint256 private constant SIGNATURE_LENGTH = 65;
    uint32 private constant FINALITY_THRESHOLD_FINALIZED = 2000;
    uint256 private constant NONCE_USED = 1;
    /// @dev secp256k1n / 2: a larger s is the malleable twin of a valid signature.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint32 public immutable localDomain;
    /// @notice Message format version (1 on Circle's v2 deployments); set at deployment, as Circle does.
    uint32 public immutable version;
    uint256 public maxMessageBodySize;
    /// @notice 1 when the nonce was used, else 0; bytes32(0) is used from the start.
    mapping(bytes32 => uint256) public usedNonces;
    uint256 public signatureThreshold;

    address private _attesterManager;
    address[] private _enabledAttesters;
    /// @dev Attester → its position in _enabledAttesters plus one; 0 = not enabled.
    mapping(address => uint256) private _attesterPositions;

    event MessageSent(bytes message);
    event MessageReceived(
        address indexed caller,
        uint32 sourceDomain,
        bytes32 indexed nonce,
        bytes32 sender,
        uint32 indexed finalityThresholdExecuted,
        bytes messageBody
    );
    event AttesterEnabled(address attester);
    event AttesterDisabled(address attester);
    event SignatureThresholdUpdated(uint256 oldSignatureThreshold, uint256 newSignatureThreshold);
    event AttesterManagerUpdated(address previousAttesterManager, address newAttesterManager);
    event MaxMessageBodySizeUpdated(uint256 newMaxMessageBodySize);

    modifier onlyAttesterManager() {
        require(msg.sender == _attesterManager, "Attestable: caller is not the attester manager");
        _;
    }

    /// @param owner_ Owner, pauser and attester manager until handed on.
    constructor(
        uint32 localDomain_,
        uint32 version_,
        address owner_,
        address[] memory attesters_,
        uint256 signatureThreshold_,
        uint256 maxMessageBodySize_
    ) CctpOwnable2Step(owner_) {
        require(signatureThreshold_ <= attesters_.length, "Signature threshold exceeds attesters");
        require(maxMessageBodySize_ > 0, "MaxMessageBodySize is zero");
        localDomain = localDomain_;
        version = version_;
        _updatePauser(owner_);
        _attesterManager = owner_;
        _setMaxMessageBodySize(maxMessageBodySize_);
        for (uint256 i; i < attesters_.length; ++i) _enableAttester(attesters_[i]);
        _setSignatureThreshold(signatureThreshold_);
        // An attested message always carries a nonce: one left empty can never be received.
        usedNonces[bytes32(0)] = NONCE_USED;
    }

    // ---------------------------------------------------------------- sending

    /// @notice Emits the message with an empty nonce and finalityThresholdExecuted, for the attester to fill in.
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external override whenNotPaused {
        require(destinationDomain != localDomain, "Domain is local domain");
        require(messageBody.length <= maxMessageBodySize, "Message body exceeds max size");
        require(recipient != bytes32(0), "Recipient must be nonzero");
        emit MessageSent(
            MessageV2.format(
                version,
                localDomain,
                destinationDomain,
                msg.sender.toBytes32(),
                recipient,
                destinationCaller,
                minFinalityThreshold,
                messageBody
            )
        );
    }

    // ---------------------------------------------------------------- receiving

    /**
     * @notice Receives an attested message once. The attestation is exactly `signatureThreshold` 65-byte
     * signatures (r‖s‖v) over keccak256(message), by enabled attesters in strictly increasing address order.
     */
    function receiveMessage(
        bytes calldata message,
        bytes calldata attestation
    ) external whenNotPaused returns (bool success) {
        _verifyAttestationSignatures(message, attestation);
        MessageV2.validateFormat(message);
        require(MessageV2.getDestinationDomain(message) == localDomain, "Invalid destination domain");
        bytes32 caller = MessageV2.getDestinationCaller(message);
        if (caller != bytes32(0)) require(caller == msg.sender.toBytes32(), "Invalid caller for message");
        require(MessageV2.getVersion(message) == version, "Invalid message version");
        bytes32 nonce = MessageV2.getNonce(message);
        require(usedNonces[nonce] == 0, "Nonce already used");
        usedNonces[nonce] = NONCE_USED;

        _deliver(message, nonce);
        return true;
    }

    /// @dev Below finalized (2000) a message goes to the handler that accepts fast transfers.
    function _deliver(bytes calldata message, bytes32 nonce) private {
        uint32 sourceDomain = MessageV2.getSourceDomain(message);
        bytes32 sender = MessageV2.getSender(message);
        uint32 finalityThresholdExecuted = MessageV2.getFinalityThresholdExecuted(message);
        bytes calldata messageBody = MessageV2.getBody(message);
        IMessageHandlerV2 handler = IMessageHandlerV2(MessageV2.getRecipient(message).toAddress());
        if (finalityThresholdExecuted < FINALITY_THRESHOLD_FINALIZED) {
            require(
                handler.handleReceiveUnfinalizedMessage(sourceDomain, sender, finalityThresholdExecuted, messageBody),
                "handleReceiveUnfinalizedMessage() failed"
            );
        } else {
            require(
                handler.handleReceiveFinalizedMessage(sourceDomain, sender, finalityThresholdExecuted, messageBody),
                "handleReceiveFinalizedMessage() failed"
            );
        }
        emit MessageReceived(msg.sender, sourceDomain, nonce, sender, finalityThresholdExecuted, messageBody);
    }

    function _verifyAttestationSignatures(bytes calldata message, bytes calldata attestation) private view {
        uint256 threshold = signatureThreshold;
        require(attestation.length == SIGNATURE_LENGTH * threshold, "Invalid attestation length");
        bytes32 digest = keccak256(message);
        address latest = address(0);
        for (uint256 i; i < threshold; ++i) {
            address signer = _recover(digest, attestation[i * SIGNATURE_LENGTH:(i + 1) * SIGNATURE_LENGTH]);
            require(signer > latest, "Signature verification failed: signer is out of order or duplicate");
            require(
                _attesterPositions[signer] != 0,
                "Signature verification failed: signer is not enabled attester"
            );
            latest = signer;
        }
    }

    /// @dev The raw digest, no EIP-191 prefix; refusals worded as the ECDSA library Circle links does.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        require(uint256(s) <= MAX_S, "ECDSA: invalid signature 's' value");
        require(v == 27 || v == 28, "ECDSA: invalid signature 'v' value");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECDSA: invalid signature");
        return signer;
    }

    // ---------------------------------------------------------------- attesters

    function attesterManager() external view returns (address) {
        return _attesterManager;
    }

    function isEnabledAttester(address attester) external view returns (bool) {
        return _attesterPositions[attester] != 0;
    }

    function getNumEnabledAttesters() external view returns (uint256) {
        return _enabledAttesters.length;
    }

    function getEnabledAttester(uint256 index) external view returns (address) {
        return _enabledAttesters[index];
    }

    function enableAttester(address newAttester) external onlyAttesterManager {
        _enableAttester(newAttester);
    }

    function disableAttester(address attester) external onlyAttesterManager {
        uint256 enabled = _enabledAttesters.length;
        require(enabled > 1, "Unable to disable attester because 1 or less attesters are enabled");
        require(enabled > signatureThreshold, "Unable to disable attester because signature threshold is too low");
        uint256 position = _attesterPositions[attester];
        require(position != 0, "Attester already disabled");
        address last = _enabledAttesters[enabled - 1];
        _enabledAttesters[position - 1] = last;
        _attesterPositions[last] = position;
        _enabledAttesters.pop();
        delete _attesterPositions[attester];
        emit AttesterDisabled(attester);
    }

    function setSignatureThreshold(uint256 newSignatureThreshold) external onlyAttesterManager {
        require(
            newSignatureThreshold != signatureThreshold,
            "New signature threshold must not equal current signature threshold"
        );
        _setSignatureThreshold(newSignatureThreshold);
    }

    function updateAttesterManager(address newAttesterManager) external onlyOwner {
        require(newAttesterManager != address(0), "Invalid attester manager address");
        emit AttesterManagerUpdated(_attesterManager, newAttesterManager);
        _attesterManager = newAttesterManager;
    }

    function setMaxMessageBodySize(uint256 newMaxMessageBodySize) external onlyOwner {
        _setMaxMessageBodySize(newMaxMessageBodySize);
    }

    function _enableAttester(address newAttester) private {
        require(newAttester != address(0), "New attester must be nonzero");
        require(_attesterPositions[newAttester] == 0, "Attester already enabled");
        _enabledAttesters.push(newAttester);
        _attesterPositions[newAttester] = _enabledAttesters.length;
        emit AttesterEnabled(newAttester);
    }

    function _setSignatureThreshold(uint256 newSignatureThreshold) private {
        require(newSignatureThreshold != 0, "New signature threshold must be nonzero");
        require(
            newSignatureThreshold <= _enabledAttesters.length,
            "New signature threshold cannot exceed the number of enabled attesters"
        );
        emit SignatureThresholdUpdated(signatureThreshold, newSignatureThreshold);
        signatureThreshold = newSignatureThreshold;
    }

    function _setMaxMessageBodySize(uint256 newMaxMessageBodySize) private {
        maxMessageBodySize = newMaxMessageBodySize;
        emit MaxMessageBodySizeUpdated(newMaxMessageBodySize);
    }
}
