--- LuaDoc for f.
local function f(a)
  local s = "-- not a comment"
  local l = [[
-- not a comment

]]
  return a
end
--- Summary of documented.
local function documented()
  return 1
end
--- Module summary.

--- Function summary.
---@param a number
local function add(a, b)
  return a + b
end
return f
