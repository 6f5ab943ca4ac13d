-- an error without a message
error({})
