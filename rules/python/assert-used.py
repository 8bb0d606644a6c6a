def withdraw(account, amount, user):
    # ruleid: python.assert-used
    assert user.is_authenticated
    # ruleid: python.assert-used
    assert account.owner == user, "not your account"
    # ok: python.assert-used
    if amount > account.balance:
        raise ValueError("insufficient funds")
    account.balance -= amount
    # ok: python.assert-used
    assertion_count = 3
    return account.balance
