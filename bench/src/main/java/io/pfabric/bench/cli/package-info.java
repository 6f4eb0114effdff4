/**
 * The {@code pfabric} command line: the root command and the subcommands that live in no other package.
 */
package io.pfabric.bench.cli;
