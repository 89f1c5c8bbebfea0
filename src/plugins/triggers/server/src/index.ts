export default {
  register() {},
  bootstrap() {},
  config: { default: {}, validator() {} },
  contentTypes: {},
  controllers: {},
  routes: {},
  services: {},
};
