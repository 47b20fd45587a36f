/** Root queries of the home page's product-update banner. */
export const productUpdateQueries = {
  /**
   * DataHub's `ProductUpdateResolver`: null while the `showProductUpdates` feature flag is off,
   * as this catalog's `appConfig` reports it (it fetches no product-update feed).
   */
  latestProductUpdate: () => null,
}
