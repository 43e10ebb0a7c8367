"""Open seeks and the queue (issue #40): games that start by themselves once players are found."""
