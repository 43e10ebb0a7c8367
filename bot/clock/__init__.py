"""The turn clock: each seat's time bank (pure maths in ``clock``), quiet hours, a server's clock
rules, the clock in words, the upgrade; the one place a seat's bank and deadline are asked
(``clocks``). It posts nothing."""
