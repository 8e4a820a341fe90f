// What other features may use from moderation; anything else here is internal (app/ composes its screens).
