package versus.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;

import serialization.protobuf.MediaProtos;

/**
 * gRPC (grpc-java, Netty transport, plain text on loopback). Maven Central does not serve the protoc plugin
 * that generates gRPC stubs (protoc-gen-grpc-java), so the one unary method is described here by hand with
 * gRPC's own protobuf marshallers, as the generated stub would describe it.
 */
final class GrpcRpc {
    static final String SERVICE = "versus.rpc.MediaService";
    static final MethodDescriptor<MediaProtos.MediaContent, MediaProtos.MediaContent> EXCHANGE =
            MethodDescriptor.<MediaProtos.MediaContent, MediaProtos.MediaContent>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Exchange"))
                    .setRequestMarshaller(ProtoUtils.marshaller(MediaProtos.MediaContent.getDefaultInstance()))
                    .setResponseMarshaller(ProtoUtils.marshaller(MediaProtos.MediaContent.getDefaultInstance()))
                    .build();

    private GrpcRpc() {
    }

    static Bench.Link client(int port) {
        MediaProtos.MediaContent request = Protos.message(Protos.value());
        ManagedChannel channel = NettyChannelBuilder
                .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).usePlaintext().build();
        return new Bench.Link() {
            @Override
            public boolean roundTrip() {
                MediaProtos.MediaContent response = ClientCalls.blockingUnaryCall(channel, EXCHANGE, CallOptions.DEFAULT, request);
                return request.equals(response);
            }

            @Override
            public void close() throws InterruptedException {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        };
    }

    /**
     * direct: run the handler on Netty's event loop thread (directExecutor()), as gRPC's performance guide
     * suggests for handlers that never block, instead of handing each call to the default executor's thread.
     */
    static void serve(int port, boolean direct) throws Exception {
        MediaProtos.MediaContent built = Protos.message(Protos.value());
        ServerServiceDefinition service = ServerServiceDefinition.builder(SERVICE)
                .addMethod(EXCHANGE, ServerCalls.asyncUnaryCall((request, observer) -> {
                    if (!built.equals(request)) {
                        observer.onError(Status.INVALID_ARGUMENT
                                .withDescription("the request differed from the expected MediaContent").asRuntimeException());
                        return;
                    }
                    observer.onNext(built);
                    observer.onCompleted();
                }))
                .build();
        NettyServerBuilder builder = NettyServerBuilder
                .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).addService(service);
        if (direct) {
            builder.directExecutor();
        }
        Server server = builder.build().start();
        System.out.println("gRPC on 127.0.0.1:" + port);
        server.awaitTermination();
    }
}
