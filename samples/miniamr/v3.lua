-- A recipe for miniAMR's 7-point stencil, version 3 (docs/recipes.md): the same
-- choices as miniamr.lua, with register caching of `in` on CUDA for whole-warp rows.
tunable("TX", {8, 32, 64}, 8)
tunable("TY", {2, 4, 8}, 8)
tunable("TZ", {1, 2, 4}, 4)
tunable("Z", {0, 8}, 0)
constraint("Z == 0 or TZ == 1")
constraint("TX * TY * TZ <= 1024")

if Z > 0 and backend ~= "c" then
    block{x = TX, y = TY, z = 1}
    stream_z(Z)
else
    block{x = TX, y = TY, z = TZ}
end
if backend == "cuda" and TX % limits.warp == 0 and Z == 0 then
    place("in", "register")
end
