// The chunks of the first screens. Home's are asked for as soon as /api/auth/me names a member,
// together with Home's posts, instead of one after another.
export const loadLanding = () => import('./routes/landing')
export const loadMemberRoutes = () => import('./member-routes')
export const loadHome = () => import('./routes/home')
