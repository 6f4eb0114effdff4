/**
 * What every module's tests share: {@link io.pfabric.testsupport.Await} to wait on a condition with a deadline,
 * {@link io.pfabric.testsupport.LoopbackPorts} for loopback ports free when asked, and
 * {@link io.pfabric.testsupport.RequiresNetns} for tests that need network namespaces.
 */
package io.pfabric.testsupport;
