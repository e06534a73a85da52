--- LuaDoc for f.
local function f(a)
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
--- Module summary.
---
--- Module details, not part of the next function's doc.

--- Function summary.
---@param a number
local function add(a, b)
  return a + b
end
return f
