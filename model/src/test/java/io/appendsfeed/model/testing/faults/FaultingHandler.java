package io.appendsfeed.model.testing.faults;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * The proxy behind a wrapped client. Operation methods ({@code putItem(PutItemRequest)}) go
 * through the plan; the interface's convenience methods (consumer-builder and no-argument
 * overloads, paginators) run their default implementation on the proxy, so every request they
 * make comes back here; {@code close()}, {@code serviceName()} and configuration go to the real client.
 */
final class FaultingHandler implements InvocationHandler {

    private final Object delegate;
    private final boolean streams;
    private final FaultInjector injector;

    FaultingHandler(Object delegate, boolean streams, FaultInjector injector) {
        this.delegate = delegate;
        this.streams = streams;
        this.injector = injector;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return objectMethod(proxy, method, args);
        }
        if (Operations.isOperation(method)) {
            return call(method, (SdkRequest) args[0]);
        }
        if (method.getName().equals("waiter") && proxy instanceof DynamoDbClient client) {
            // the real client's waiter would poll through itself, bypassing the faults
            return DynamoDbWaiter.builder().client(client).build();
        }
        if (method.isDefault() && routesThroughProxy(method)) {
            return InvocationHandler.invokeDefault(proxy, method, args);
        }
        return passThrough(method, args);
    }

    private Object call(Method method, SdkRequest request) throws Throwable {
        String operation = Operations.name(method);
        long number = injector.nextCall(operation);
        Optional<Fault> decided = injector.plan().faultFor(new FaultPlan.Call(operation, number, request));
        if (decided.isEmpty()) {
            return passThrough(method, new Object[] {request});
        }
        Fault fault = decided.get();
        injector.record(new InjectedFault(operation, number, fault));
        if (fault instanceof Fault.FailBefore) {
            throw FaultExceptions.failBefore(operation, number);
        }
        if (fault instanceof Fault.Throttle) {
            throw FaultExceptions.throttle(streams, operation, number);
        }
        if (fault instanceof Fault.Delay delay) {
            try {
                Thread.sleep(delay.duration().toMillis(), delay.duration().toNanosPart() % 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw FaultExceptions.interrupted(operation, number, e);
            }
            return passThrough(method, new Object[] {request});
        }
        if (fault instanceof Fault.FailAfter) {
            try {
                passThrough(method, new Object[] {request});
            } catch (RuntimeException realOutcome) {
                throw FaultExceptions.failAfter(operation, number, realOutcome);
            }
            throw FaultExceptions.failAfter(operation, number, null);
        }
        throw new IllegalStateException("unhandled fault kind " + fault);
    }

    /** Consumer-builder overloads, no-argument overloads and paginators: all call back an operation. */
    private static boolean routesThroughProxy(Method method) {
        if (method.getName().endsWith("Paginator")) {
            return true;
        }
        if (method.getParameterCount() == 0) {
            return SdkResponse.class.isAssignableFrom(method.getReturnType());
        }
        return method.getParameterCount() == 1 && method.getParameterTypes()[0] == Consumer.class;
    }

    private Object passThrough(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Object objectMethod(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "FaultInjector(" + delegate + ")";
            default -> throw new IllegalStateException("unexpected Object method " + method);
        };
    }
}
