// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMessageHandlerV2, IMintBurnToken, IRelayerV2, ITokenMinterV2} from "./CctpInterfaces.sol";
import {AddressBytes32, BurnMessageV2} from "./CctpMessages.sol";
import {CctpOwnable2Step, CctpDenylistable} from "./CctpRoles.sol";

/**
 * @title TokenMessengerV2 (devnet)
 * @notice Burns tokens for a cross-chain transfer and mints them on receipt, with the external interface,
 * events, checks, check order and revert strings of Circle's V2.1 TokenMessengerV2: selectors
 * depositForBurn 0x8e0250ee and depositForBurnWithHook 0x779b432d, a denylist of callers and origins,
 * the V2.1 on-chain minimum fee, and the fee executed by the attester minted to the fee recipient on both
 * the fast and the standard path. Written for the devnet from the documented behaviour; not upgradeable.
 */
contract TokenMessengerV2 is IMessageHandlerV2, CctpDenylistable {
    using AddressBytes32 for address;
    using AddressBytes32 for bytes32;

    /// @notice minFee is in units of 1/1000 basis point: amount × minFee / MIN_FEE_MULTIPLIER.
    uint256 public constant MIN_FEE_MULTIPLIER = 10_000_000;
    uint32 private constant TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD = 500;

    address public immutable localMessageTransmitter;
    /// @notice Burn message version (1 on Circle's v2 deployments); set at deployment, as Circle does.
    uint32 public immutable messageBodyVersion;
    ITokenMinterV2 public localMinter;
    mapping(uint32 => bytes32) public remoteTokenMessengers;
    address public feeRecipient;
    uint256 public minFee;
    address public minFeeController;

    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );
    event MintAndWithdraw(
        address indexed mintRecipient,
        uint256 amount,
        address indexed mintToken,
        uint256 feeCollected
    );
    event RemoteTokenMessengerAdded(uint32 domain, bytes32 tokenMessenger);
    event RemoteTokenMessengerRemoved(uint32 domain, bytes32 tokenMessenger);
    event LocalMinterAdded(address localMinter);
    event LocalMinterRemoved(address localMinter);
    event FeeRecipientSet(address feeRecipient);
    event MinFeeSet(uint256 minFee);
    event MinFeeControllerSet(address minFeeController);

    /// @dev A burn's arguments in memory: eight of them on the stack leave no room for the event's ten.
    struct Burn {
        uint256 amount;
        uint32 destinationDomain;
        bytes32 mintRecipient;
        address burnToken;
        bytes32 destinationCaller;
        uint256 maxFee;
        uint32 minFinalityThreshold;
    }

    modifier onlyLocalMessageTransmitter() {
        require(msg.sender == localMessageTransmitter, "Invalid message transmitter");
        _;
    }

    modifier onlyRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) {
        require(
            tokenMessenger != bytes32(0) && remoteTokenMessengers[domain] == tokenMessenger,
            "Remote TokenMessenger unsupported"
        );
        _;
    }

    modifier onlyMinFeeController() {
        require(msg.sender == minFeeController, "Caller is not the min fee controller");
        _;
    }

    /// @param owner_ Owner, denylister and min fee controller until handed on.
    constructor(
        address messageTransmitter_,
        uint32 messageBodyVersion_,
        address owner_,
        address feeRecipient_
    ) CctpOwnable2Step(owner_) {
        require(messageTransmitter_ != address(0), "MessageTransmitter not set");
        localMessageTransmitter = messageTransmitter_;
        messageBodyVersion = messageBodyVersion_;
        _updateDenylister(owner_);
        _setFeeRecipient(feeRecipient_);
        _setMinFeeController(owner_);
    }

    // ---------------------------------------------------------------- burning

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external notDenylistedCallers {
        _depositForBurn(
            Burn(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold),
            msg.data[0:0]
        );
    }

    function depositForBurnWithHook(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) external notDenylistedCallers {
        require(hookData.length > 0, "Hook data is empty");
        _depositForBurn(
            Burn(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold),
            hookData
        );
    }

    /// @notice The least maxFee a burn of `amount` may name: 0 without a minimum fee, else at least 1 unit.
    function getMinFeeAmount(uint256 amount) external view returns (uint256) {
        return _minFeeAmount(amount);
    }

    /**
     * @dev The token goes from the depositor to the minter, which burns it; then the transmitter emits the
     * message. The log order follows: Transfer, Burn, Transfer (the token's), MessageSent, DepositForBurn.
     */
    function _depositForBurn(Burn memory burn, bytes calldata hookData) private {
        require(burn.amount > 0, "Amount must be nonzero");
        require(burn.mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(burn.maxFee < burn.amount, "Max fee must be less than amount");
        require(burn.maxFee >= _minFeeAmount(burn.amount), "Insufficient max fee");
        bytes32 destinationTokenMessenger = _remoteTokenMessenger(burn.destinationDomain);

        ITokenMinterV2 minter = _localMinter();
        require(
            IMintBurnToken(burn.burnToken).transferFrom(msg.sender, address(minter), burn.amount),
            "Transfer operation failed"
        );
        minter.burn(burn.burnToken, burn.amount);

        bytes memory body = BurnMessageV2.format(
            messageBodyVersion,
            burn.burnToken.toBytes32(),
            burn.mintRecipient,
            burn.amount,
            msg.sender.toBytes32(),
            burn.maxFee,
            hookData
        );
        IRelayerV2(localMessageTransmitter).sendMessage(
            burn.destinationDomain,
            destinationTokenMessenger,
            burn.destinationCaller,
            burn.minFinalityThreshold,
            body
        );
        emit DepositForBurn(
            burn.burnToken,
            burn.amount,
            msg.sender,
            burn.mintRecipient,
            burn.destinationDomain,
            destinationTokenMessenger,
            burn.destinationCaller,
            burn.maxFee,
            burn.minFinalityThreshold,
            hookData
        );
    }

    function _minFeeAmount(uint256 amount) private view returns (uint256) {
        uint256 fee = minFee;
        if (fee == 0) return 0;
        uint256 feeAmount = (amount * fee) / MIN_FEE_MULTIPLIER;
        return feeAmount == 0 ? 1 : feeAmount;
    }

    // ---------------------------------------------------------------- receiving

    function handleReceiveFinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32,
        bytes calldata messageBody
    )
        external
        override
        onlyLocalMessageTransmitter
        onlyRemoteTokenMessenger(remoteDomain, sender)
        returns (bool)
    {
        _handleReceiveMessage(remoteDomain, messageBody);
        return true;
    }

    function handleReceiveUnfinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    )
        external
        override
        onlyLocalMessageTransmitter
        onlyRemoteTokenMessenger(remoteDomain, sender)
        returns (bool)
    {
        require(
            finalityThresholdExecuted >= TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD,
            "Unsupported finality threshold"
        );
        _handleReceiveMessage(remoteDomain, messageBody);
        return true;
    }

    /// @dev The fee the attester executed comes out of the amount on both paths and goes to the fee recipient.
    function _handleReceiveMessage(uint32 remoteDomain, bytes calldata body) private {
        BurnMessageV2.validateFormat(body);
        require(BurnMessageV2.getVersion(body) == messageBodyVersion, "Invalid message body version");
        uint256 expirationBlock = BurnMessageV2.getExpirationBlock(body);
        require(
            expirationBlock == 0 || expirationBlock > block.number,
            "Message expired and must be re-signed"
        );
        uint256 amount = BurnMessageV2.getAmount(body);
        uint256 fee = BurnMessageV2.getFeeExecuted(body);
        require(fee == 0 || fee < amount, "Fee equals or exceeds amount");
        require(fee <= BurnMessageV2.getMaxFee(body), "Fee exceeds max fee");
        _mintAndWithdraw(
            remoteDomain,
            BurnMessageV2.getBurnToken(body),
            BurnMessageV2.getMintRecipient(body).toAddress(),
            amount - fee,
            fee
        );
    }

    function _mintAndWithdraw(
        uint32 remoteDomain,
        bytes32 burnToken,
        address mintRecipient,
        uint256 amount,
        uint256 fee
    ) private {
        ITokenMinterV2 minter = _localMinter();
        address mintToken = fee > 0
            ? minter.mint(remoteDomain, burnToken, mintRecipient, feeRecipient, amount, fee)
            : minter.mint(remoteDomain, burnToken, mintRecipient, amount);
        emit MintAndWithdraw(mintRecipient, amount, mintToken, fee);
    }

    // ---------------------------------------------------------------- configuration

    function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) external onlyOwner {
        require(tokenMessenger != bytes32(0), "bytes32(0) not allowed");
        require(remoteTokenMessengers[domain] == bytes32(0), "TokenMessenger already set");
        remoteTokenMessengers[domain] = tokenMessenger;
        emit RemoteTokenMessengerAdded(domain, tokenMessenger);
    }

    function removeRemoteTokenMessenger(uint32 domain) external onlyOwner {
        bytes32 removed = remoteTokenMessengers[domain];
        require(removed != bytes32(0), "No TokenMessenger set");
        delete remoteTokenMessengers[domain];
        emit RemoteTokenMessengerRemoved(domain, removed);
    }

    function addLocalMinter(address newLocalMinter) external onlyOwner {
        require(newLocalMinter != address(0), "Zero address not allowed");
        require(address(localMinter) == address(0), "Local minter is already set.");
        localMinter = ITokenMinterV2(newLocalMinter);
        emit LocalMinterAdded(newLocalMinter);
    }

    function removeLocalMinter() external onlyOwner {
        address removed = address(localMinter);
        require(removed != address(0), "No local minter is set.");
        delete localMinter;
        emit LocalMinterRemoved(removed);
    }

    function setFeeRecipient(address newFeeRecipient) external onlyOwner {
        _setFeeRecipient(newFeeRecipient);
    }

    function setMinFeeController(address newMinFeeController) external onlyOwner {
        _setMinFeeController(newMinFeeController);
    }

    function setMinFee(uint256 newMinFee) external onlyMinFeeController {
        require(newMinFee < MIN_FEE_MULTIPLIER, "Min fee too high");
        minFee = newMinFee;
        emit MinFeeSet(newMinFee);
    }

    function _remoteTokenMessenger(uint32 domain) private view returns (bytes32) {
        bytes32 tokenMessenger = remoteTokenMessengers[domain];
        require(tokenMessenger != bytes32(0), "No TokenMessenger for domain");
        return tokenMessenger;
    }

    function _localMinter() private view returns (ITokenMinterV2) {
        require(address(localMinter) != address(0), "Local minter is not set");
        return localMinter;
    }

    function _setFeeRecipient(address newFeeRecipient) private {
        require(newFeeRecipient != address(0), "Zero address not allowed");
        feeRecipient = newFeeRecipient;
        emit FeeRecipientSet(newFeeRecipient);
    }

    function _setMinFeeController(address newMinFeeController) private {
        require(newMinFeeController != address(0), "Zero address not allowed");
        minFeeController = newMinFeeController;
        emit MinFeeControllerSet(newMinFeeController);
    }
}
