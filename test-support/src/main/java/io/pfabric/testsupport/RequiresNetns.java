package io.pfabric.testsupport;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test that creates network namespaces (and so also opens packet sockets and veth pairs in them): it carries
 * the tag {@code netns} ({@code mvn -DexcludedGroups=netns} leaves them out) and is skipped, with the reason, where
 * this process cannot create a namespace.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Tag("netns")
@ExtendWith(NetnsCapability.class)
public @interface RequiresNetns
{
}
