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
        SpringApplication.run(ShortgateApplication.class, args);
    }
}
