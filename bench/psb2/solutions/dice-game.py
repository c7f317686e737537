# PSB2 dice-game (see dice-game.rs). stdin: two lines, n and m. stdout: the probability.
n = int(input())
m = int(input())
print(sum(min(peter - 1, m) for peter in range(1, n + 1)) / (n * m))
