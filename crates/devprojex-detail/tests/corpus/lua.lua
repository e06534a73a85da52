-- Comment
--- LuaDoc for f.
-- @param a number
local function f(a)
  --[[ block
  comment ]]
  local s = "-- not a comment"
  local l = [[
-- not a comment

]]
  return a
end
--- Summary of documented.
---
--- Details.
--- @return number
local function documented()
  return 1
end
return f
