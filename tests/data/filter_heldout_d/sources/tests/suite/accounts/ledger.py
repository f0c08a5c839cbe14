from decimal import Decimal


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, owner, balance="0.00", overdraft="0.00"):
        self.owner = owner
        self.balance = Decimal(balance)
        self.overdraft = Decimal(overdraft)
        self.history = []

    def deposit(self, amount):
        amount = Decimal(amount)
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(("deposit", amount))

    def withdraw(self, amount):
        amount = Decimal(amount)
        if amount > self.balance + self.overdraft:
            raise InsufficientFunds(f"{self.owner}: balance {self.balance}, wanted {amount}")
        self.balance -= amount
        self.history.append(("withdraw", amount))

    def transfer(self, other, amount):
        self.withdraw(amount)
        other.deposit(amount)


def monthly_fee(account):
    return Decimal("2.50") if account.balance < 1000 else Decimal("0")


def interest(account, rate):
    return (account.balance * Decimal(rate) / 12).quantize(Decimal("0.01"))
