-- N-body, one step: every body is accelerated by every other (softened
-- gravity, G = 1), then velocities and positions are updated with time step
-- `dt` (semi-implicit Euler). Bodies are seven arrays: position, velocity,
-- mass. Returns the new positions and velocities.
-- ==
-- input { 1f32 [0f32, 1f32] [0f32, 0f32] [0f32, 0f32]
--         [0f32, 0f32] [0f32, 0f32] [0f32, 0f32] [1f32, 1f32] }
-- random input { f32 [32]f32 [32]f32 [32]f32 [32]f32 [32]f32 [32]f32 [32]f32 }

-- ==
-- tags { large }
-- notest random input { f32 [4096]f32 [4096]f32 [4096]f32 [4096]f32 [4096]f32 [4096]f32 [4096]f32 }

def softening : f32 = 0.01f32

-- The acceleration of a body at (x, y, z) by all bodies.
def acceleration [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32)
                     (x: f32) (y: f32) (z: f32) : (f32, f32, f32) =
  loop (ax, ay, az) = (0f32, 0f32, 0f32) for j < n do
    let dx = xs[j] - x
    let dy = ys[j] - y
    let dz = zs[j] - z
    let d2 = dx * dx + dy * dy + dz * dz + softening
    let inv = 1f32 / (d2 * f32.sqrt d2)
    let s = ms[j] * inv
    in (ax + dx * s, ay + dy * s, az + dz * s)

def main [n] (dt: f32) (xs: [n]f32) (ys: [n]f32) (zs: [n]f32)
             (vxs: [n]f32) (vys: [n]f32) (vzs: [n]f32) (ms: [n]f32)
           : ([n]f32, [n]f32, [n]f32, [n]f32, [n]f32, [n]f32) =
  let (axs, ays, azs) = unzip3 (map3 (acceleration xs ys zs ms) xs ys zs)
  let vxs' = map2 (\v a -> v + a * dt) vxs axs
  let vys' = map2 (\v a -> v + a * dt) vys ays
  let vzs' = map2 (\v a -> v + a * dt) vzs azs
  let xs' = map2 (\p v -> p + v * dt) xs vxs'
  let ys' = map2 (\p v -> p + v * dt) ys vys'
  let zs' = map2 (\p v -> p + v * dt) zs vzs'
  in (xs', ys', zs', vxs', vys', vzs')
