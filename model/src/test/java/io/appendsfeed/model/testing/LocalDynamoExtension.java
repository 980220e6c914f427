package io.appendsfeed.model.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that injects the JVM-wide {@link LocalDynamo} into test constructors, test
 * methods and lifecycle methods: {@code @ExtendWith(LocalDynamoExtension.class)}.
 */
public final class LocalDynamoExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return parameter.getParameter().getType() == LocalDynamo.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return LocalDynamo.shared();
    }
}
