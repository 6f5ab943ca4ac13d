file(REMOVE_RECURSE
  "libimclcore.a"
)
