-- A recipe for miniAMR's 7-point stencil, v2 (docs/recipes.md): the loop over the
-- blocks is inside each thread (its offset changes per block, so neither shared
-- memory nor stream_z applies); the tunables are the block and the unrolling of that
-- loop, whose trip count is known only at run time.
tunable("TX", {4, 8, 16}, 8)
tunable("TY", {2, 4, 8}, 8)
tunable("TZ", {1, 2, 4}, 4)
tunable("U", {1, 2, 4}, 1)
constraint("TX * TY * TZ <= 512")

block{x = TX, y = TY, z = TZ}
unroll("blocks", U)
