-- A recipe for miniAMR's 7-point stencil on one block variable (docs/recipes.md).
-- The block's cells are walked up z by each thread (stream_z) when Z > 0, with the
-- x-y plane covered by TX x TY threads; otherwise a TX x TY x TZ block.
--   imcl -r samples/miniamr/miniamr.lua [-t values.json] samples/miniamr/miniamr.imcl
tunable("TX", {8, 16, 32}, 8)
tunable("TY", {2, 4, 8}, 8)
tunable("TZ", {1, 2, 4}, 4)
tunable("Z", {0, 4, 8}, 0)     -- z points per thread (0: one)
constraint("Z == 0 or TZ == 1")

if Z > 0 and backend ~= "c" then
    block{x = TX, y = TY, z = 1}
    stream_z(Z)
else
    block{x = TX, y = TY, z = TZ}
end
