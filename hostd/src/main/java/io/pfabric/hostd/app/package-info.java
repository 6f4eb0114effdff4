/**
 * The application API for other languages and for the command line: a Unix-domain-socket protocol of
 * length-prefixed frames ({@link io.pfabric.hostd.app.AppProtocol}), served by {@link io.pfabric.hostd.app.AppServer}
 * and spoken by {@link io.pfabric.hostd.app.AppClient}.
 */
package io.pfabric.hostd.app;
