/** A small stand-in for web/dist (`index.html`, one hashed asset, `robots.txt`), so infra tests need no web build. */
export const siteFixture = new URL('../fixtures/site', import.meta.url).pathname;
