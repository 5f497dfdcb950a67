// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @notice Two-step ownership with an explicit first owner: the devnet deploys through a CREATE2 factory,
 * so msg.sender at construction is the factory, never the operator. Revert strings are the ones Circle's
 * CCTP contracts give, which callers may match on.
 */
abstract contract CctpOwnable2Step {
    address private _owner;
    address private _pendingOwner;

    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(address owner_) {
        require(owner_ != address(0), "Ownable: new owner is the zero address");
        _transferOwnership(owner_);
    }

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function pendingOwner() external view returns (address) {
        return _pendingOwner;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        _pendingOwner = newOwner;
        emit OwnershipTransferStarted(_owner, newOwner);
    }

    function acceptOwnership() external {
        require(msg.sender == _pendingOwner, "Ownable2Step: caller is not the new owner");
        _transferOwnership(msg.sender);
    }

    function _transferOwnership(address newOwner) internal {
        delete _pendingOwner;
        address previous = _owner;
        _owner = newOwner;
        emit OwnershipTransferred(previous, newOwner);
    }
}

/// @notice An emergency stop held by a pauser role, as on Circle's token minter and message transmitter.
abstract contract CctpPausable is CctpOwnable2Step {
    address private _pauser;
    bool public paused;

    event Pause();
    event Unpause();
    event PauserChanged(address indexed newAddress);

    modifier whenNotPaused() {
        require(!paused, "Pausable: paused");
        _;
    }

    modifier onlyPauser() {
        require(msg.sender == _pauser, "Pausable: caller is not the pauser");
        _;
    }

    function pauser() external view returns (address) {
        return _pauser;
    }

    function pause() external onlyPauser {
        paused = true;
        emit Pause();
    }

    function unpause() external onlyPauser {
        paused = false;
        emit Unpause();
    }

    function updatePauser(address newPauser) external onlyOwner {
        _updatePauser(newPauser);
    }

    function _updatePauser(address newPauser) internal {
        require(newPauser != address(0), "Pausable: new pauser is the zero address");
        _pauser = newPauser;
        emit PauserChanged(newPauser);
    }
}

/**
 * @notice The token messenger's denylist. Both the caller and the transaction's origin are checked, so a
 * denylisted account cannot burn through a contract of its own.
 */
abstract contract CctpDenylistable is CctpOwnable2Step {
    address private _denylister;
    mapping(address => uint256) private _denylist;

    event DenylisterChanged(address indexed oldDenylister, address indexed newDenylister);
    event Denylisted(address indexed account);
    event UnDenylisted(address indexed account);

    modifier onlyDenylister() {
        require(msg.sender == _denylister, "Denylistable: caller is not denylister");
        _;
    }

    modifier notDenylistedCallers() {
        _requireNotDenylisted(msg.sender);
        if (msg.sender != tx.origin) _requireNotDenylisted(tx.origin);
        _;
    }

    function denylister() external view returns (address) {
        return _denylister;
    }

    function isDenylisted(address account) external view returns (bool) {
        return _denylist[account] == 1;
    }

    function updateDenylister(address newDenylister) external onlyOwner {
        _updateDenylister(newDenylister);
    }

    function denylist(address account) external onlyDenylister {
        _denylist[account] = 1;
        emit Denylisted(account);
    }

    function unDenylist(address account) external onlyDenylister {
        _denylist[account] = 0;
        emit UnDenylisted(account);
    }

    function _updateDenylister(address newDenylister) internal {
        require(newDenylister != address(0), "Denylistable: new denylister is the zero address");
        emit DenylisterChanged(_denylister, newDenylister);
        _denylister = newDenylister;
    }

    function _requireNotDenylisted(address account) private view {
        require(_denylist[account] == 0, "Denylistable: account is on denylist");
    }
}
