-- accept: step : [n][m]bool -> [n][m]bool
-- One step of the Game of Life on a torus, with records, sum types,
-- loops, indexing and nested maps.

type cell = #dead | #alive

def to_cell (b: bool) : cell = if b then #alive else #dead

def alive (c: cell) : bool =
  match c
  case #alive -> true
  case #dead -> false

def count_neighbours [n][m] (board: [n][m]bool) (i: i64) (j: i64) : i32 =
  loop count = 0 for di < 3 do
    loop count for dj < 3 do
      let y = (i + di - 1 + n) % n
      let x = (j + dj - 1 + m) % m
      in if (di == 1 && dj == 1) || !board[y, x] then count else count + 1

def rule (alive_now: bool) (neighbours: i32) : bool =
  neighbours == 3 || (alive_now && neighbours == 2)

def step [n][m] (board: [n][m]bool) : [n][m]bool =
  map (\i ->
         map (\j -> alive (to_cell (rule board[i, j] (count_neighbours board i j))))
             (iota m))
      (iota n)
