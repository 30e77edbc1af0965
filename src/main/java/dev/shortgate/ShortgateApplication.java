package dev.shortgate;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Shortgate: a reactive short-link redirect gateway.
 *
 * <p>Read the request path as {@code RedirectHandler → LinkLookup (near cache → Redis → database)},
 * and the write path as {@code LinkController → LinkService → CodeAllocator → LinkRepository}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@ConfigurationPropertiesScan
public class ShortgateApplication {

    public static void main(String[] args) {
        if (args.length > 0 && "import".equals(args[0])) { // a one-off import, without the web server
            System.exit(dev.shortgate.transfer.ImportCommand.run(
                    ShortgateApplication.class,
                    java.util.Arrays.copyOfRange(args, 1, args.length),
                    System.out,
                    System.err));
        }
        SpringApplication.run(ShortgateApplication.class, args);
    }
}
