-- A recipe for the 5x5 blur (docs/recipes.md): tunables for the block and the
-- unrolling of the loop over a row of taps, named by its label (`taps:` in
-- blur5.imcl), so that editing the kernel keeps the recipe valid.
--   imcl -r samples/blur5/blur5.lua [-t values.json] samples/blur5/blur5.imcl
tunable("BX", {16, 32, 64}, 16)
tunable("BY", {2, 4, 8}, 8)
tunable("CX", {1, 2}, 1)
tunable("UNROLL", {1, 5}, 5)
constraint("BX * BY <= 512")

block{x = BX, y = BY}
coarsen{x = CX}
unroll("taps", UNROLL)
-- the 25 weights are read by every thread in the same order: constant memory
place("mask", "constant")
-- the image in shared memory only while the tile of a block stays small
if backend ~= "c" and (BX * CX + 4) * (BY + 4) * 4 <= 8192 then
    place("in", "shared")
end
