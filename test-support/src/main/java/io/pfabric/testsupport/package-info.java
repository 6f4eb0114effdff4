/**
 * What every module's tests share: {@link io.pfabric.testsupport.Await} to wait on a condition with a deadline, and
 * {@link io.pfabric.testsupport.RequiresNetns} for tests that need network namespaces.
 */
package io.pfabric.testsupport;
