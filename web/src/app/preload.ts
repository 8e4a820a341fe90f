// The chunks of the first screens. Home's are asked for as soon as a member is known, together
// with Home's posts, instead of one after another (a member's document from the server already
// preloads them and carries the posts: crates/server/src/web/mod.rs).
export const loadLanding = () => import('./routes/landing')
export const loadHome = () => import('./routes/home')
