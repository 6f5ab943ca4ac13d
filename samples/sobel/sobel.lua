-- A recipe for the Sobel kernel (docs/recipes.md), as a CUDA-CHiLL user writes one:
-- the thread block TX x TY and the rows a thread computes are tunables; the rest is
-- decided from them and from the backend.
--   imcl -r samples/sobel/sobel.lua [-t values.json] samples/sobel/sobel.imcl
--   imcl --dump-space -r samples/sobel/sobel.lua samples/sobel/sobel.imcl
tunable("TX", {16, 32, 64, 128}, 32)   -- threads along x
tunable("TY", {1, 2, 4, 8}, 4)         -- threads along y
tunable("RY", {1, 2, 4}, 1)            -- rows of the image per thread
constraint("TX * TY <= 1024")

block{x = TX, y = TY}
coarsen{y = RY}
-- rows a block apart, so that the threads of a warp read next to each other
mapping("interleaved")

-- The 3x3 neighbourhood of `in`: on CUDA a whole-warp row shares it through
-- shuffles; elsewhere a tile in shared memory while the block's tile is small.
local tile = (TX + 2) * (TY * RY + 2) * 4
if backend == "cuda" and TX % limits.warp == 0 then
    place("in", "register")
elseif backend ~= "c" and tile <= limits.shared / 4 then
    place("in", "shared")
end
