// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title FiatTokenRoles (devnet)
 * @notice The administrative roles of Circle's FiatToken v2.2 with their function names, events and
 * revert strings: an owner who appoints the others, a pauser who stops every movement of tokens, a
 * blacklister who freezes accounts, and a master minter who appoints minters. Code that reacts to a
 * paused token or a blacklisted address sees here exactly what it sees on a real chain.
 * @dev Its state, FiatTokenERC20's and FiatToken's live in FiatTokenProxy's storage, in that order: an
 * upgrade adds new variables after the existing ones, never between them.
 */
abstract contract FiatTokenRoles {
    address private _owner;
    address public pauser;
    address public blacklister;
    address public masterMinter;
    bool public paused;
    mapping(address => bool) private _blacklisted;

    event OwnershipTransferred(address previousOwner, address newOwner);
    event PauserChanged(address indexed newAddress);
    event BlacklisterChanged(address indexed newBlacklister);
    event MasterMinterChanged(address indexed newMasterMinter);
    event Pause();
    event Unpause();
    event Blacklisted(address indexed _account);
    event UnBlacklisted(address indexed _account);

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    modifier onlyPauser() {
        require(msg.sender == pauser, "Pausable: caller is not the pauser");
        _;
    }

    modifier onlyBlacklister() {
        require(msg.sender == blacklister, "Blacklistable: caller is not the blacklister");
        _;
    }

    modifier onlyMasterMinter() {
        require(msg.sender == masterMinter, "FiatToken: caller is not the masterMinter");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "Pausable: paused");
        _;
    }

    modifier notBlacklisted(address account) {
        require(!_blacklisted[account], "Blacklistable: account is blacklisted");
        _;
    }

    // ---------------------------------------------------------------- owner

    function owner() external view returns (address) {
        return _owner;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        _setOwner(newOwner);
    }

    function updatePauser(address newPauser) external onlyOwner {
        require(newPauser != address(0), "Pausable: new pauser is the zero address");
        pauser = newPauser;
        emit PauserChanged(newPauser);
    }

    function updateBlacklister(address newBlacklister) external onlyOwner {
        require(newBlacklister != address(0), "Blacklistable: new blacklister is the zero address");
        blacklister = newBlacklister;
        emit BlacklisterChanged(newBlacklister);
    }

    function updateMasterMinter(address newMasterMinter) external onlyOwner {
        require(newMasterMinter != address(0), "FiatToken: new masterMinter is the zero address");
        masterMinter = newMasterMinter;
        emit MasterMinterChanged(newMasterMinter);
    }

    // ---------------------------------------------------------------- pause

    /// @notice Stops transfers, approvals, authorizations, mints and burns until `unpause`.
    function pause() external onlyPauser {
        paused = true;
        emit Pause();
    }

    function unpause() external onlyPauser {
        paused = false;
        emit Unpause();
    }

    // ---------------------------------------------------------------- blacklist

    function isBlacklisted(address account) external view returns (bool) {
        return _blacklisted[account];
    }

    /// @notice The account can no longer send, receive, approve or be approved; its balance stays.
    function blacklist(address account) external onlyBlacklister {
        _blacklisted[account] = true;
        emit Blacklisted(account);
    }

    function unBlacklist(address account) external onlyBlacklister {
        _blacklisted[account] = false;
        emit UnBlacklisted(account);
    }

    // ---------------------------------------------------------------- for the token's initializer

    function _setOwner(address newOwner) internal {
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }

    function _setRoles(address newMasterMinter, address newPauser, address newBlacklister) internal {
        masterMinter = newMasterMinter;
        pauser = newPauser;
        blacklister = newBlacklister;
    }

    function _blacklistUnchecked(address account) internal {
        _blacklisted[account] = true;
    }
}
