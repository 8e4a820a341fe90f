-- wrk script for bench/run.sh: every request comes from a member picked at random.
--
--   wrk ... -s bench/murmur.lua http://127.0.0.1:PORT -- MODE SESSIONS_FILE MEMBERS POSTS
--
-- SESSIONS_FILE has one `token<TAB>user_id<TAB>username<TAB>following` a line, the members who
-- follow the most first (see `murmur seed --sessions`). MODE is one of the names in `modes`
-- below; "feed-heavy" uses only the first 10 sessions (the members who follow the most),
-- "moderation-queue" only the first (the admin `murmur seed --open-reports` makes).
-- The sessions file holds many members (bench/run.sh starts up to 5,000) so that writes spread
-- over many members and measure speed rather than the per-member rate limits (30 posts,
-- 120 likes, 60 follows a minute).
-- Writes send `X-Requested-With: murmur` (the cross-site guard) and a JSON body.
-- "list" reads the feed of the session's own list: `murmur seed --sessions` makes one list per
-- session's member, in the file's order, so the list of the Nth line has id N (of up to 50 of
-- the people that member follows). Likewise `murmur seed --messages` has the Nth line's member
-- start conversation N ("conversation", "message"); the first 100 lines' members are in many
-- conversations ("conversations" reads their lists).

local tokens = {}
local mode, members, posts
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("thread_no", counter)
end

function init(args)
  mode = args[1] or "healthz"
  local file = args[2]
  members = tonumber(args[3] or "1000")
  posts = tonumber(args[4] or "1000")
  local all = {}
  for line in io.lines(file) do
    local token = line:match("^([^\t]+)")
    if token then all[#all + 1] = token end
  end
  local take = #all
  if mode == "feed-heavy" then take = math.min(10, #all) end
  if mode == "moderation-queue" then take = math.min(1, #all) end
  for i = 1, take do tokens[i] = all[i] end
  math.randomseed(os.time() * 1000 + (thread_no or 0))
end

local function cookie()
  return "murmur_session=" .. tokens[math.random(#tokens)]
end

local function get(path)
  return wrk.format("GET", path, { ["Cookie"] = cookie() })
end

local function post(path, body)
  return wrk.format("POST", path, {
    ["Cookie"] = cookie(),
    ["X-Requested-With"] = "murmur",
    ["Content-Type"] = "application/json",
  }, body)
end

-- The Mastodon API's rows: the same tokens as apps' bearer tokens (`murmur seed --sessions`).
local function bearer(method, path, body)
  local headers = { ["Authorization"] = "Bearer " .. tokens[math.random(#tokens)] }
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format(method, path, headers, body)
end

local function any_post() return math.random(posts) end
local function any_member() return math.random(members) end

local modes = {
  ["healthz"] = function() return wrk.format("GET", "/healthz") end,
  ["me"] = function() return get("/api/auth/me") end,
  ["feed"] = function() return get("/api/posts/feed?limit=20&offset=0") end,
  ["feed-heavy"] = function() return get("/api/posts/feed?limit=20&offset=0") end,
  ["feed-deep"] = function() return get("/api/posts/feed?limit=20&offset=200") end,
  ["list"] = function()
    local i = math.random(#tokens)
    return wrk.format("GET", "/api/lists/" .. i .. "/posts?limit=20&offset=0", { ["Cookie"] = "murmur_session=" .. tokens[i] })
  end,
  ["for-you"] = function() return get("/api/posts/for-you?limit=20&offset=0") end,
  ["thread"] = function() return get("/api/posts/" .. any_post() .. "/thread") end,
  ["profile"] = function() return get("/api/users/member" .. any_member() .. "/posts") end,
  ["profile-replies"] = function() return get("/api/users/member" .. any_member() .. "/replies") end,
  ["profile-media"] = function() return get("/api/users/member" .. any_member() .. "/media") end,
  ["followers"] = function() return get("/api/users/member" .. any_member() .. "/followers?limit=20&offset=0") end,
  ["following"] = function() return get("/api/users/member" .. any_member() .. "/following?limit=20&offset=0") end,
  ["thread-replies"] = function() return get("/api/posts/" .. any_post() .. "/replies?limit=20&offset=0") end,
  ["notifications"] = function() return get("/api/notifications?limit=50") end,
  -- What the web app asks for: the likes and reposts of one post as one item.
  ["notifications-grouped"] = function() return get("/api/notifications?grouped=true&limit=50") end,
  ["search"] = function() return get("/api/users/search?q=mem&limit=20") end,
  ["blocks"] = function() return get("/api/blocks?limit=20&offset=0") end,
  ["moderation-queue"] = function() return get("/api/moderation/reports?limit=20&offset=0") end,
  -- Post search for a word in about a fifth of the posts, one in a few hundred, and a phrase.
  ["post-search-common"] = function() return get("/api/posts/search?q=coffee&limit=20") end,
  ["post-search-rare"] = function() return get("/api/posts/search?q=zeppelin&limit=20") end,
  ["post-search-phrase"] = function() return get("/api/posts/search?q=%22morning%20coffee%22&limit=20") end,
  ["tag-page"] = function() return get("/api/tags/Coffee/posts?limit=20&offset=0") end,
  ["trending"] = function() return get("/api/trending?limit=20") end,
  ["post"] = function()
    return post("/api/posts", '{"content":"Benchmark post ' .. math.random(1000000000) .. '"}')
  end,
  ["like"] = function() return post("/api/posts/" .. any_post() .. "/like", "") end,
  ["follow"] = function() return post("/api/follows", '{"followingId":' .. any_member() .. '}') end,
  ["conversations"] = function()
    local i = math.random(math.min(100, #tokens))
    return wrk.format("GET", "/api/conversations?box=inbox&limit=20", { ["Cookie"] = "murmur_session=" .. tokens[i] })
  end,
  ["conversation"] = function()
    local i = math.random(#tokens)
    return wrk.format("GET", "/api/conversations/" .. i .. "/messages?limit=20", { ["Cookie"] = "murmur_session=" .. tokens[i] })
  end,
  ["message"] = function()
    local i = math.random(#tokens)
    return wrk.format("POST", "/api/conversations/" .. i .. "/messages", {
      ["Cookie"] = "murmur_session=" .. tokens[i],
      ["X-Requested-With"] = "murmur",
      ["Content-Type"] = "application/json",
    }, '{"content":"Benchmark message ' .. math.random(1000000000) .. '"}')
  end,
  ["masto-home"] = function() return bearer("GET", "/api/v1/timelines/home?limit=20") end,
  ["masto-notifications"] = function() return bearer("GET", "/api/v1/notifications?limit=40") end,
  ["masto-post"] = function()
    return bearer("POST", "/api/v1/statuses", '{"status":"Benchmark status ' .. math.random(1000000000) .. '"}')
  end,
}

-- Reads with writes going on: 80% reads (feed, thread, profile), 20% writes (post, like, follow).
modes["mixed"] = function()
  local r = math.random(100)
  if r <= 40 then return modes["feed"]()
  elseif r <= 60 then return modes["thread"]()
  elseif r <= 80 then return modes["profile"]()
  elseif r <= 87 then return modes["like"]()
  elseif r <= 94 then return modes["follow"]()
  else return modes["post"]() end
end

-- The two halves of "mixed-writes" (bench/run.sh runs them as two wrk processes at once, so the
-- writes' latency is measured on its own while reads keep the server busy).
modes["reads"] = function()
  local r = math.random(4)
  if r <= 2 then return modes["feed"]()
  elseif r == 3 then return modes["thread"]()
  else return modes["profile"]() end
end
modes["writes"] = function()
  local r = math.random(20)
  if r <= 7 then return modes["like"]()
  elseif r <= 14 then return modes["follow"]()
  else return modes["post"]() end
end

function request()
  return (modes[mode] or modes["healthz"])()
end

function done(summary, latency, requests)
  local e = summary.errors
  -- e.status counts answers with a status above 399 (wrk); the rest are socket errors.
  io.write(string.format("RESULT %d %d %d %d %d %d\n",
    summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
