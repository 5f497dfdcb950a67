// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FiatTokenRoles} from "./FiatTokenRoles.sol";

/**
 * @title FiatTokenERC20 (devnet)
 * @notice ERC-20 balances and allowances, and minting by minters with an allowance, as Circle's
 * FiatToken v2.2 has them: the same checks in the same order, the same revert strings ("ERC20:
 * transfer amount exceeds balance", not OpenZeppelin 5's custom errors) and the same events in the
 * same order (Mint before Transfer, Burn before Transfer). Every movement stops while paused, and no
 * blacklisted account may take part in one.
 */
abstract contract FiatTokenERC20 is FiatTokenRoles {
    uint256 private _totalSupply;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowed;
    mapping(address => bool) private _minters;
    mapping(address => uint256) private _minterAllowed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed minter, address indexed to, uint256 amount);
    event Burn(address indexed burner, uint256 amount);
    event MinterConfigured(address indexed minter, uint256 minterAllowedAmount);
    event MinterRemoved(address indexed oldMinter);

    // ---------------------------------------------------------------- ERC-20

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) public view returns (uint256) {
        return _balances[account];
    }

    function allowance(address owner_, address spender) external view returns (uint256) {
        return _allowed[owner_][spender];
    }

    function approve(
        address spender,
        uint256 value
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(spender) returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function increaseAllowance(
        address spender,
        uint256 increment
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(spender) returns (bool) {
        _approve(msg.sender, spender, _allowed[msg.sender][spender] + increment);
        return true;
    }

    function decreaseAllowance(
        address spender,
        uint256 decrement
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(spender) returns (bool) {
        uint256 current = _allowed[msg.sender][spender];
        require(decrement <= current, "ERC20: decreased allowance below zero");
        _approve(msg.sender, spender, current - decrement);
        return true;
    }

    function transfer(
        address to,
        uint256 value
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(to) returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @dev No unlimited allowance: like FiatToken, every transferFrom spends from the allowance.
    function transferFrom(
        address from,
        address to,
        uint256 value
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(from) notBlacklisted(to) returns (bool) {
        require(value <= _allowed[from][msg.sender], "ERC20: transfer amount exceeds allowance");
        _transfer(from, to, value);
        _allowed[from][msg.sender] -= value;
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");
        require(value <= _balances[from], "ERC20: transfer amount exceeds balance");
        _balances[from] -= value;
        _balances[to] += value;
        emit Transfer(from, to, value);
    }

    function _approve(address owner_, address spender, uint256 value) internal {
        require(owner_ != address(0), "ERC20: approve from the zero address");
        require(spender != address(0), "ERC20: approve to the zero address");
        _allowed[owner_][spender] = value;
        emit Approval(owner_, spender, value);
    }

    // ---------------------------------------------------------------- minting

    modifier onlyMinters() {
        require(_minters[msg.sender], "FiatToken: caller is not a minter");
        _;
    }

    function isMinter(address account) external view returns (bool) {
        return _minters[account];
    }

    function minterAllowance(address minter) external view returns (uint256) {
        return _minterAllowed[minter];
    }

    /// @notice Makes `minter` a minter (or changes its allowance); a CCTP token minter is one.
    function configureMinter(
        address minter,
        uint256 minterAllowedAmount
    ) external whenNotPaused onlyMasterMinter returns (bool) {
        _minters[minter] = true;
        _minterAllowed[minter] = minterAllowedAmount;
        emit MinterConfigured(minter, minterAllowedAmount);
        return true;
    }

    function removeMinter(address minter) external onlyMasterMinter returns (bool) {
        _minters[minter] = false;
        _minterAllowed[minter] = 0;
        emit MinterRemoved(minter);
        return true;
    }

    /// @notice Mints to `to` out of the caller's minter allowance.
    function mint(
        address to,
        uint256 amount
    ) external whenNotPaused onlyMinters notBlacklisted(msg.sender) notBlacklisted(to) returns (bool) {
        require(to != address(0), "FiatToken: mint to the zero address");
        require(amount > 0, "FiatToken: mint amount not greater than 0");
        uint256 allowed = _minterAllowed[msg.sender];
        require(amount <= allowed, "FiatToken: mint amount exceeds minterAllowance");
        _totalSupply += amount;
        _balances[to] += amount;
        _minterAllowed[msg.sender] = allowed - amount;
        emit Mint(msg.sender, to, amount);
        emit Transfer(address(0), to, amount);
        return true;
    }

    /// @notice Burns from the minter's own balance (a CCTP token minter burns what it was sent).
    function burn(uint256 amount) external whenNotPaused onlyMinters notBlacklisted(msg.sender) {
        uint256 balance = _balances[msg.sender];
        require(amount > 0, "FiatToken: burn amount not greater than 0");
        require(balance >= amount, "FiatToken: burn amount exceeds balance");
        _totalSupply -= amount;
        _balances[msg.sender] = balance - amount;
        emit Burn(msg.sender, amount);
        emit Transfer(msg.sender, address(0), amount);
    }
}
